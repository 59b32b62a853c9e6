// The guide section each flag links to: a section that really discusses why such a number does
// not measure what it claims. Anchors are made as lib/diagnosis/evaluate.ts makes them (the
// fixed section headings of content/guides/*.mdx).
import type { RunCheck } from "./types";

const anchor = (section: string) => section.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

function guide(slug: string, section: string): NonNullable<RunCheck["guide"]> {
  return { slug, section, href: `/guides/${slug}#${anchor(section)}` };
}

export const CHECK_GUIDES = {
  // "Much of the table is cache, not SSD": reads faster than the device could deliver.
  cacheServedRead: guide("ext2-ext3-ext4-iozone", "Caveats"),
  // The dirty-page write-back the article describes: writes return once they are in the cache.
  writeNotOnDevice: guide("storage-media-disk-flash-memory", "Findings"),
  // "The InnoDB tests are single, short runs": read them as qualitative.
  tooShort: guide("storage-media-disk-flash-memory", "Caveats"),
  // Interleaving another stream of writes made the head travel between regions and cost the run.
  deviceBusy: guide("storage-media-disk-flash-memory", "Findings"),
  // Cores that contend for the same memory bus and CPUs slow each other's work.
  cpuBusy: guide("multicore-memory-bandwidth", "Findings"),
} as const;
