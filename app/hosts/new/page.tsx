import type { Metadata } from "next";
import { AddHostForm } from "@/components/hosts/add-host-form";
import { requirePageUser } from "@/lib/auth/page-guard";
import { createHostAction } from "../actions";

export const metadata: Metadata = { title: "Add host" };

export default async function NewHostPage() {
  await requirePageUser("/hosts/new", "OPERATOR");
  return (
    <>
      <h1>Add a host</h1>
      <p className="lead">
        Name the machine. Probebook gives you a one-time registration token and the command that starts the agent on it; the
        agent connects out to this server, reports the host&apos;s profile and waits for probes you launch here.
      </p>
      <AddHostForm createHost={createHostAction} />
    </>
  );
}
