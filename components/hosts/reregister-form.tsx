"use client";

import { useActionState } from "react";
import { reregisterHostAction, type RegistrationState } from "@/app/hosts/actions";
import { RegistrationResult } from "./registration-result";

export function ReregisterForm({ hostId }: { hostId: string }) {
  const [state, action, pending] = useActionState<RegistrationState, FormData>(reregisterHostAction, {});
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
