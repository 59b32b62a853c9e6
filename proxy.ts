import { NextResponse, type NextRequest } from "next/server";

/**
 * A path with malformed %-escapes (/api/runs/%ff%fe) made Next's own parameter decoding fail
 * with a bare 500; it is the client's mistake and gets a 400 that says so.
 */
export function proxy(request: NextRequest) {
  try {
    decodeURIComponent(request.nextUrl.pathname);
  } catch {
    return NextResponse.json({ error: "The address is not valid: it contains malformed %-escapes." }, { status: 400 });
  }
  return NextResponse.next();
}

export const config = { matcher: ["/((?!_next/static|_next/image).*)"] };
