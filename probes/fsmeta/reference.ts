import type { ReferenceMapping } from "../core/probe";

/** A MyISAM table of MySQL 5.1 is three files: .frm (definition), .MYD (data), .MYI (index). */
const FILES_PER_MYISAM_TABLE = 3;
const STEP: Record<string, string> = { CREATE: "create", DROP: "delete" };

/**
 * The 50,000-table CREATE/DROP rates (content/data/create-drop-50k-rates.json) as one flat run per
 * file system. CREATE TABLE makes the table's files and DROP TABLE unlinks them, so tables per
 * second × 3 is the files per second MySQL asked of the file system. Not like for like with the
 * probe: MySQL 5.1 fdatasync'ed each new .frm (sync_frm, on by default), so its CREATE rate on a
 * 7200 rpm drive is about the drive's synchronous write rate, while the probe's creates sync
 * nothing (the guide says so beside the reference). InnoDB rows are left out: it kept every table's data in one shared ibdata1, so its
 * CREATE made one file, not three, and its rates would not be comparable.
 */
export const fsmetaReference: ReferenceMapping = {
  runPerOperation: false,
  measurement: (row, value) => {
    const op = STEP[String(row.phase)];
    if (!op || row.engine !== "MyISAM") return null;
    return { metric: "rate", value: value * FILES_PER_MYISAM_TABLE, unit: "files/s", dims: { op, layout: "flat", files: 50_000 * FILES_PER_MYISAM_TABLE, dirs: 1 } };
  },
};
