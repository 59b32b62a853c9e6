import Link from "next/link";
import { reproduceHref } from "@/lib/guides/format";
import styles from "./guides.module.css";

export interface ReproduceButtonProps {
  /** "probe:preset", a preset reference of the catalog (probes/catalog.ts `presetRefs`). */
  preset: string;
  label: string;
  /**
   * The command line the preset runs, shown under the button. Optional: the probe catalog that
   * can resolve it (probes/catalog.ts, resolvePreset) does not exist yet; pass it once it does.
   */
  command?: string;
}

/** Opens the probe launch form with the guide's preset filled in. */
export function ReproduceButton({ preset, label, command }: ReproduceButtonProps) {
  const href = reproduceHref(preset);
  // Build-time validation rejects malformed preset ids; this only guards direct use.
  if (!href) return null;
  return (
    <div className={styles.reproduce}>
      {/* The launch form needs a signed-in operator; no point prefetching it for every reader. */}
      <Link href={href} prefetch={false} className="btn btn-primary">
        <span aria-hidden="true">▶</span>
        {label}
      </Link>
      {command && (
        <p className="muted small">
          Runs <code>{command}</code>
        </p>
      )}
    </div>
  );
}
