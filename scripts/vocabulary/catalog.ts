// Reads GNU message catalogs (.mo, .po) into one shape: msgid → msgstr forms. gettext-parser reads
// ordinary messages but skips the "system-dependent" ones that msgfmt stores apart when a msgid
// uses <inttypes.h> macros ("%<PRIdMAX>+%<PRIdMAX> records in", coreutils' dd): those are decoded
// here from the layout in glibc's intl/gmo.h (MO revision 1: a segment table naming the macros,
// and per string a list of static parts each followed by a macro reference, ~0 at the end).
// Macros are rendered back as "%<PRIdMAX>", as in the .po file.
import { readFileSync } from "node:fs";
import { mo, po, type GetTextTranslationRecord } from "gettext-parser";

export interface Message {
  msgid: string;
  plural?: string;
  /** Translated forms: one, or one per plural form of the language. */
  msgstr: string[];
}

export interface Catalog {
  /** The catalog's "Project-Id-Version" (e.g. "sysstat 12.5.6"): which release it translated. */
  project: string;
  messages: Map<string, Message>;
}

function fromTranslations(translations: GetTextTranslationRecord): Map<string, Message> {
  const out = new Map<string, Message>();
  for (const [context, messages] of Object.entries(translations)) {
    if (context !== "") continue;
    for (const m of Object.values(messages)) {
      if (m.msgid === "" || m.msgstr.every((s) => s === "")) continue;
      out.set(m.msgid, { msgid: m.msgid, ...(m.msgid_plural ? { plural: m.msgid_plural } : {}), msgstr: m.msgstr });
    }
  }
  return out;
}

const SEGMENTS_END = 0xffffffff;

/** The system-dependent messages of a revision-1 .mo file (none in revision 0). */
function sysdepMessages(data: Buffer): Message[] {
  const magic = data.readUInt32LE(0);
  const read = magic === 0x950412de ? (o: number) => data.readUInt32LE(o) : (o: number) => data.readUInt32BE(o);
  const revision = read(4);
  if (revision >> 16 !== 0 && revision >> 16 !== 1) return [];
  if ((revision & 0xffff) < 1 && revision >> 16 === 0) return [];
  const [segmentCount, segmentTable, stringCount, originals, translations] = [read(28), read(32), read(36), read(40), read(44)];
  const segments: string[] = [];
  for (let i = 0; i < segmentCount; i++) {
    const length = read(segmentTable + i * 8);
    const offset = read(segmentTable + i * 8 + 4);
    segments.push(data.subarray(offset, offset + length).toString("latin1").replace(/\0+$/, ""));
  }
  const stringAt = (descriptor: number): string => {
    let offset = read(descriptor);
    const parts: Buffer[] = [];
    for (let at = descriptor + 4; ; at += 8) {
      const size = read(at);
      const ref = read(at + 4);
      parts.push(data.subarray(offset, offset + size));
      offset += size;
      if (ref === SEGMENTS_END) break;
      parts.push(Buffer.from(`<${segments[ref] ?? "?"}>`));
    }
    return Buffer.concat(parts).toString("utf8");
  };
  const out: Message[] = [];
  for (let i = 0; i < stringCount; i++) {
    const [msgid = "", plural] = stringAt(read(originals + i * 4)).replace(/\0$/, "").split("\0");
    const msgstr = stringAt(read(translations + i * 4)).replace(/\0$/, "").split("\0");
    out.push({ msgid, ...(plural ? { plural } : {}), msgstr });
  }
  return out;
}

export function readMo(file: string): Catalog {
  const data = readFileSync(file);
  const parsed = mo.parse(data);
  const messages = fromTranslations(parsed.translations);
  for (const m of sysdepMessages(data)) messages.set(m.msgid, m);
  return { project: parsed.headers["Project-Id-Version"] ?? "", messages };
}

export function readPo(text: string | Buffer): Catalog {
  const parsed = po.parse(text);
  // Fuzzy entries are not compiled into the .mo the tool reads: skip them as msgfmt does.
  const translations: GetTextTranslationRecord = {};
  for (const [context, messages] of Object.entries(parsed.translations)) {
    translations[context] = Object.fromEntries(
      Object.entries(messages).filter(([, m]) => !/\bfuzzy\b/.test(m.comments?.flag ?? "")),
    );
  }
  return { project: parsed.headers["Project-Id-Version"] ?? "", messages: fromTranslations(translations) };
}
