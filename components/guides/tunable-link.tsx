import { tunableHref } from "@/lib/guides/format";
import styles from "./guides.module.css";

/**
 * A tunable named in running text, linking to its row in the tunables index (recommended value,
 * the guides that discuss it, and what each registered host has).
 */
export function TunableLink({ name }: { name: string }) {
  return (
    // A plain link, not next/link: a full navigation makes the browser apply :target to the row
    // (client-side navigation does not), which is what highlights it in the long table.
    <a href={tunableHref(name)} className={styles.tunableLink}>
      <code>{name}</code>
    </a>
  );
}
