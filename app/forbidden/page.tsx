import type { Metadata } from "next";
import type { Refusal } from "@/lib/auth/action-guard";

export const metadata: Metadata = { title: "Not allowed" };

// Where pages (lib/auth/page-guard.ts) and server actions (lib/auth/action-guard.ts) send a
// refusal. The query only picks one of these fixed sentences: nobody can put words on this page.
const REFUSED: Record<Refusal, string> = {
  forbidden: "You may not do this: it belongs to someone else, or needs a role you do not have.",
  "not-found": "What this action names does not exist (any more). Reload the page and try again.",
  invalid: "The action was refused: what the form sent is not valid. Reload the page and try again.",
};

export default async function ForbiddenPage({ searchParams }: { searchParams: Promise<{ need?: string; refused?: string }> }) {
  const { need, refused } = await searchParams;
  const reason = refused && Object.hasOwn(REFUSED, refused) ? REFUSED[refused as Refusal] : null;
  return (
    <>
      <h1>Not allowed</h1>
      <p className="muted">
        {reason ?? `This page needs the ${need === "admin" || need === "operator" ? need : "right"} role. Ask an administrator to change your role.`}
      </p>
    </>
  );
}
