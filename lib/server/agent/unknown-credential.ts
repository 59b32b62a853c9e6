import { AppError } from "../../http/app-error";

/** The 401 of every agent route whose credential no host holds (never issued, revoked, or its host deleted). */
export function unknownCredential(): AppError {
  return new AppError("UNAUTHORIZED", "This agent credential is unknown or was revoked: register the agent again with a new token.");
}
