import type { Metadata } from "next";

export const metadata: Metadata = { title: "Not allowed" };

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string }> }) {
  const { need } = await searchParams;
  return (
    <>
      <h1>Not allowed</h1>
      <p className="muted">
        This page needs the {need === "admin" || need === "operator" ? need : "right"} role. Ask an administrator to change
        your role.
      </p>
    </>
  );
}
