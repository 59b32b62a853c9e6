import type { z } from "zod";
import type { Operation, TextMedia } from "./operation";

// What a handler may answer: one of its operation's declared statuses, with that status's body.
// Shared by the route wrapper (app/api/handle.ts) and the agent gateway (lib/gateway), which serve
// the same operations.
type JsonReply<S, Spec> = Spec extends { json: infer J extends z.ZodType } ? { status: S; json: z.input<J>; headers?: Record<string, string>; indent?: boolean } : never;
type TextReply<S, Spec> = Spec extends { text: readonly (infer M extends TextMedia)[] } ? { status: S; type: M; text: string | ReadableStream<Uint8Array>; headers?: Record<string, string> } : never;
type EmptyReply<S, Spec> = Spec extends { json: z.ZodType } ? never : Spec extends { text: readonly TextMedia[] } ? never : { status: S; headers?: Record<string, string> };

export type Reply<O extends Operation> = ReplyOf<O["responses"]>;
export type ReplyOf<R> = { [S in keyof R & number]: JsonReply<S, R[S]> | TextReply<S, R[S]> | EmptyReply<S, R[S]> }[keyof R & number];
