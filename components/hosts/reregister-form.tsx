"use client";

import { useActionState } from "react";
import { RegistrationResult, type RegistrationAction, type RegistrationState } from "./registration-result";

export function ReregisterForm({ hostId, reregister }: { hostId: string; reregister: RegistrationAction }) {
  const [state, action, pending] = useActionState<RegistrationState, FormData>(reregister, {});
  if (state.host) return <RegistrationResult host={state.host} />;
  return (
    <form action={action}>
      <input type="hidden" name="hostId" value={hostId} />
      {state.error ? <span className="field-error">{state.error}</span> : null}
      <button className="btn btn-danger" type="submit" disabled={pending}>
        Revoke agent credential and re-register
      </button>
    </form>
  );
}
