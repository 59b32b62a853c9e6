"use client";

import { startTransition, useActionState, useEffect, useRef, type FormEvent, type ReactNode } from "react";
import type { FormState } from "@/lib/http/form-state";

/** A form bound to a server action that answers with a message (and a token shown once); a refusal keeps the values typed. */
export function ActionForm({
  action,
  children,
  submit,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  children: ReactNode;
  submit: string;
}) {
  const [state, formAction, pending] = useActionState<FormState, FormData>(action, {});
  const ref = useRef<HTMLFormElement>(null);
  // React resets a form after its action; a refusal must leave what was typed, so the action is
  // called from onSubmit (no reset) and the form is cleared only once it succeeded.
  function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const data = new FormData(e.currentTarget);
    startTransition(() => formAction(data));
  }
  useEffect(() => {
    if (state.ok) ref.current?.reset();
  }, [state]);
  return (
    <form ref={ref} action={formAction} onSubmit={onSubmit} className="stack">
      {state.error ? (
        <div role="alert" className="alert alert-error">
          {state.error}
        </div>
      ) : null}
      {state.ok ? (
        <div role="status" className="alert alert-ok">
          {state.ok}
          {state.token ? (
            <pre style={{ margin: "0.5rem 0 0" }}>
              <code data-testid="new-token">{state.token}</code>
            </pre>
          ) : null}
        </div>
      ) : null}
      {children}
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {submit}
        </button>
      </div>
    </form>
  );
}
