/**
 * Where a parsed JSON body holds a "__proto__" key. JSON.parse makes such a key an own property,
 * and the code after it disagrees on what that is: a zod record drops it, an object spread or
 * Object.assign turns it into a prototype. No field of this API has that name, so a body carrying
 * one is refused with the key's path rather than half-read.
 *
 * Iterative, not recursive: a body may be nested thousands deep (JSON.parse takes it), and a
 * recursive walk would overflow the stack on it.
 */
export function prototypeKeyPaths(value: unknown): string[] {
  const found: string[] = [];
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: "" }];
  while (stack.length) {
    const { v, path } = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    for (const key of Object.keys(v)) {
      const at = path ? `${path}.${key}` : key;
      if (key === "__proto__") found.push(at);
      else stack.push({ v: (v as Record<string, unknown>)[key], path: at });
    }
  }
  return found;
}

/**
 * Whether the raw text can spell a "__proto__" key at all: literally, or with \u escapes. Lets the
 * walk be skipped for the bodies that cannot hold one (most agent chunks).
 */
export function mayHoldPrototypeKey(text: string): boolean {
  return text.includes("proto") || text.includes("\\u");
}
