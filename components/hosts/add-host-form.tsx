"use client";

import { useActionState } from "react";
import { createHostAction, type RegistrationState } from "@/app/hosts/actions";
import { RegistrationResult } from "./registration-result";

export function AddHostForm() {
  const [state, action, pending] = useActionState<RegistrationState, FormData>(createHostAction, {});
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
