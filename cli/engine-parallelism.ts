/**
 * How many steps the engine runs at once for `nfv`, its benches and its tests. Pulumi's default is
 * 4 per core (pkg/cmd/pulumi/operations/up.go, `defaultParallel`): 8 on the lab's two cores, sized
 * for work done on this machine. An NFV stack's steps are mostly waits on remote APIs: the
 * openstack provider polls a server's create or delete only after a fixed 10 s and a port's after
 * 5 s, so 20 server deletes ran in three waves of 8 and lost to Heat, which deletes them all at
 * once (README, performance). At 32 the destroys are even with Heat's (bench:openstack: 20 servers
 * in 32.8 s, 100 in 138.6 s; 50.7 and 208.6 s at 8). A user's own PULUMI_PARALLEL is kept.
 */
export const NFV_PARALLEL = 32;

/** The environment of a pulumi process of `nfv`: PULUMI_PARALLEL, unless the user set one. */
export function parallelismEnv(): Record<string, string> {
  return process.env.PULUMI_PARALLEL ? {} : { PULUMI_PARALLEL: String(NFV_PARALLEL) };
}
