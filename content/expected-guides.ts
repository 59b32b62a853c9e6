/** The ten guides the knowledge base must hold (one per technical seed article), for tests. */
export const EXPECTED_GUIDE_SLUGS = [
  "ext2-ext3-ext4-iozone",
  "storage-media-disk-flash-memory",
  "linux-memory-numa-databases",
  "multicore-memory-bandwidth",
  "filesystem-metadata-create-drop",
  "xfs-preallocation-ndb",
  "mysql-select-mirroring-failover",
  "rails-sql-session-store",
  "memcached-at-facebook",
  "erlang-smp",
] as const;
