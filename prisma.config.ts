import path from "node:path";
import { defineConfig } from "prisma/config";
// Prisma 6's JavaScript schema engine drives migrations through a driver adapter. adapter-pg 7
// is used here because adapter-pg 6.19 cannot read PostgreSQL's `name` columns during
// `migrate deploy` (prisma#27403). The application's client uses adapter-pg 6.19.
import { PrismaPg } from "prisma-migrate-adapter-pg";

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => {
    // `migrate diff` between schema files needs no database, but the CLI builds the adapter
    // anyway; the placeholder fails loudly if a command does try to connect without a URL.
    const connectionString = process.env.DATABASE_URL ?? "postgresql://127.0.0.1:1/DATABASE_URL-is-not-set";
    // Structurally the same factory interface; the two majors only differ in their type names.
    return new PrismaPg({ connectionString }) as never;
  },
});
