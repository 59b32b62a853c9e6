import styles from "./command-box.module.css";
import { CopyButton } from "./copy-button";

/**
 * A command to paste into a shell, with a Copy button beside it. Long commands wrap inside the
 * box (at any character: they have no spaces to break at) instead of running off the page.
 */
export function CommandBox({ command, testId, label = "Copy" }: { command: string; testId?: string; label?: string }) {
  return (
    <div className={styles.box}>
      <pre>
        <code data-testid={testId}>{command}</code>
      </pre>
      <CopyButton text={command} label={label} />
    </div>
  );
}
