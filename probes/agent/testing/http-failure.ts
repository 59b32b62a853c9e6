import { HttpError } from "../http-client";

/** The HttpError a request failed with (a test fails if it succeeded or failed otherwise). */
export async function failure(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(err)}`);
  return err;
}
