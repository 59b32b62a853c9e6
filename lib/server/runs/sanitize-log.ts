/** PostgreSQL text cannot hold NUL; no probe prints one, but a chunk must never be refused for it. */
export function storableText(text: string): string {
  return text.includes("\u0000") ? text.split("\u0000").join("\uFFFD") : text;
}
