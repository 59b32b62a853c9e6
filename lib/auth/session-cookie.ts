/** The session cookie's name, on its own so the API document can name it without the session machinery. */
export const SESSION_COOKIE = "probebook_session";
