// How a tool is installed, per Linux distribution family: the vocabulary a probe's ToolInfo uses
// to say which package brings its binary (probes/profile/install-commands.ts turns it into commands).

export const DISTRO_FAMILIES = ["debian", "ubuntu", "fedora", "rhel", "suse", "arch", "alpine"] as const;
export type DistroFamily = (typeof DISTRO_FAMILIES)[number];

/** A tool without a package in the distribution's usual repositories: what to do instead. */
export interface ManualInstall {
  manual: string;
}
export type PackageSource = string | ManualInstall;
export type PackagesByFamily = Record<DistroFamily, PackageSource>;

/** The same package name on every family, with the exceptions given. */
export function samePackage(pkg: string, exceptions: Partial<PackagesByFamily> = {}): PackagesByFamily {
  const all = Object.fromEntries(DISTRO_FAMILIES.map((f) => [f, pkg])) as PackagesByFamily;
  return { ...all, ...exceptions };
}
