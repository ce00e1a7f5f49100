/**
 * How many steps the engine runs at once for `nfv`, its benches and its tests. Pulumi's default is
 * 4 per core (pkg/cmd/pulumi/operations/up.go, `defaultParallel`): 8 on the lab's two cores, sized
 * for work done on this machine. An NFV stack's steps are mostly waits on remote APIs: the
 * openstack provider polls a server's create or delete only after a fixed 10 s and a port's after
 * 5 s, so 20 server deletes ran in three waves of 8 and lost to Heat, which deletes them all at
 * once (README, performance). 32 at once won that row (bench:openstack, 20 servers: 34.1 s against
 * Heat's 38.1; 50.7 s at 8). A user's own PULUMI_PARALLEL is kept.
 */
export const NFV_PARALLEL = 32;

/** The environment of a pulumi process of `nfv`: PULUMI_PARALLEL, unless the user set one. */
export function parallelismEnv(): Record<string, string> {
  return process.env.PULUMI_PARALLEL ? {} : { PULUMI_PARALLEL: String(NFV_PARALLEL) };
}
