"use client";

import styles from "./compare.module.css";

/** What a public share may reveal about the hosts (lib/api/schemas/comparisons.ts shareIncludeSchema). */
export interface ShareIncludeValue {
  hostnames: boolean;
  paths: boolean;
  kernel: boolean;
  models: boolean;
}

/** The share schema's defaults: names, addresses, paths and models stay private unless ticked. */
export const DEFAULT_SHARE_INCLUDE: ShareIncludeValue = { hostnames: false, paths: false, kernel: true, models: false };

/**
 * The choices every share link offers before it is published: which host details the frozen copy
 * keeps, and when the link expires ("" = until withdrawn). Used by the comparison's and the
 * experiment's share forms alike.
 */
export function ShareOptions({
  include,
  onInclude,
  expiresInDays,
  onExpires,
}: {
  include: ShareIncludeValue;
  onInclude: (next: ShareIncludeValue) => void;
  expiresInDays: string;
  onExpires: (days: string) => void;
}) {
  return (
    <>
      <fieldset className={styles.shareInclude}>
        <legend>Include host details</legend>
        <label>
          <input type="checkbox" checked={include.hostnames} onChange={(e) => onInclude({ ...include, hostnames: e.target.checked })} /> Host names and addresses
        </label>
        <label>
          <input type="checkbox" checked={include.paths} onChange={(e) => onInclude({ ...include, paths: e.target.checked })} /> Directories and mount points
        </label>
        <label>
          <input type="checkbox" checked={include.kernel} onChange={(e) => onInclude({ ...include, kernel: e.target.checked })} /> Kernel and distribution
        </label>
        <label>
          <input type="checkbox" checked={include.models} onChange={(e) => onInclude({ ...include, models: e.target.checked })} /> Disk and CPU models
        </label>
      </fieldset>
      <label>
        Link expires
        <select value={expiresInDays} onChange={(e) => onExpires(e.target.value)}>
          <option value="">never (until withdrawn)</option>
          <option value="1">after 1 day</option>
          <option value="7">after 7 days</option>
          <option value="30">after 30 days</option>
          <option value="365">after a year</option>
        </select>
      </label>
    </>
  );
}
