"use client";

import { useActionState } from "react";
import { RegistrationResult, type RegistrationAction, type RegistrationState } from "./registration-result";

export function AddHostForm({ createHost }: { createHost: RegistrationAction }) {
  const [state, action, pending] = useActionState<RegistrationState, FormData>(createHost, {});
  if (state.host) return <RegistrationResult host={state.host} />;
  return (
    <form action={action} className="stack" noValidate>
      {state.error ? (
        <div role="alert" className="alert alert-error">
          {state.error}
        </div>
      ) : null}
      <label>
        Host name
        <input name="name" required placeholder="db-07" aria-invalid={state.fieldErrors?.name ? true : undefined} />
        {state.fieldErrors?.name ? <span className="field-error">{state.fieldErrors.name.join(" ")}</span> : null}
      </label>
      <div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending ? "Adding…" : "Add host"}
        </button>
      </div>
    </form>
  );
}
