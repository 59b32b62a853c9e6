// The forms' shared error parts: the alert with the API's message and the field errors no field
// shows (each field named in words, never a raw path such as "arms.1.tunables.vm.dirty_ratio"),
// the missing-tool alert and the submit row. No zod here: these forms are client bundles.
import type { ReactNode } from "react";

export type FieldErrors = Record<string, string[]>;

/** "blockSizeKiB" → "block size KiB"; "sizeMiB" stays readable. */
const words = (s: string) => s.replace(/([a-z])([A-Z])(?=[a-z])/g, "$1 $2").replace(/_/g, " ").toLowerCase();

/**
 * A field's name in words: the form's own label for the path (or its longest labelled prefix), else
 * the path read aloud: "arms.1.tunables.vm.dirty_ratio" → "arm 2: vm.dirty_ratio".
 */
export function fieldName(path: string, labels: Record<string, string> = {}): string {
  const parts = path.split(".");
  for (let n = parts.length; n > 0; n--) {
    const label = labels[parts.slice(0, n).join(".")];
    if (label) return n === parts.length ? label : `${label}: ${fieldName(parts.slice(n).join("."))}`;
  }
  if (path === "_" || path === "") return "The form";
  if (parts[0] === "arms" && /^\d+$/.test(parts[1] ?? "")) {
    const rest = parts.slice(2).filter((p) => p !== "tunables");
    return `arm ${Number(parts[1]) + 1}${rest.length ? `: ${rest.join(".")}` : ""}`;
  }
  // A tunable's name (vm.dirty_ratio) stays as the kernel spells it; other segments read as words.
  if (parts.length > 1 && parts.every((p) => /^[a-z_]+$/.test(p))) return path;
  return parts.map((p) => (/^\d+$/.test(p) ? `#${Number(p) + 1}` : words(p))).join(" › ");
}

/**
 * The form's alert: the API's message, then every field error `placed` does not claim (those sit
 * beside their fields), each named by `fieldName`. Nothing when there is no error.
 */
export function FormError({ error, fieldErrors = {}, placed = () => false, labels, testId }: { error: string | null; fieldErrors?: FieldErrors; placed?: (path: string) => boolean; labels?: Record<string, string>; testId?: string }) {
  if (!error) return null;
  const rest = Object.entries(fieldErrors).filter(([k]) => !placed(k));
  return (
    <div role="alert" className="alert alert-error" data-testid={testId ?? "form-error"}>
      {error}
      {rest.length > 0 ? (
        <ul>
          {rest.map(([k, msgs]) => (
            <li key={k} data-field={k}>
              <strong>{fieldName(k, labels)}</strong>: {msgs.join(" ")}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** One field's errors beside it (role alert, so a screen reader hears it when it appears). */
export function FieldError({ messages, id, field }: { messages: readonly string[] | undefined; id?: string; field?: string }) {
  if (!messages?.length) return null;
  return (
    <span id={id} className="field-error" data-field={field} role="alert">
      {messages.join(" ")}
    </span>
  );
}

/** The host lacks the probe's tool (its install advice), then the submit button, disabled meanwhile. */
export function SubmitRow({ missing, pending, disabled, label, pendingLabel }: { missing?: string; pending: boolean; disabled?: boolean; label: ReactNode; pendingLabel: ReactNode }) {
  return (
    <>
      {missing ? (
        <div className="alert alert-warn" role="status">
          {missing}
        </div>
      ) : null}
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending || !!missing || !!disabled}>
          {pending ? pendingLabel : label}
        </button>
      </div>
    </>
  );
}
