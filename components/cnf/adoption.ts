/**
 * Refusing to adopt, at run time. @pulumi/kubernetes 4.25 creates with server-side apply, which
 * silently takes over an object that already exists (the AlreadyExists error came in 4.29), which
 * is Tacker's LP #2053098. So before any child is created, each planned object is read from the
 * cluster with the VIM's credentials: an existing object must carry this instance's
 * `tacker_vnf_instance_id` label (ours, e.g. after a lost state), else nothing is created.
 */
import { DiagnosticBag } from "../../translators/diagnostics";
import { checkAdoption, type LiveObject } from "../../translators/kubernetes/labels";
import type { PlannedObject } from "../../translators/kubernetes/objects";
import type { KubeApi } from "../../clients/kube-api";

/**
 * Reads every planned object; throws one DiagnosticError naming each object of another instance
 * (or of none). Objects that cannot be read (e.g. HTTP 403) are returned as warnings.
 */
export async function refuseForeignObjects(objects: readonly PlannedObject[], api: KubeApi, instanceId: string, defaultNamespace: string): Promise<string[]> {
  const live: LiveObject[] = [];
  const unreadable: string[] = [];
  const planned = objects.map((p) =>
    p.namespaced && !p.object.metadata.namespace ? { ...p.object, metadata: { ...p.object.metadata, namespace: defaultNamespace } } : p.object,
  );
  await Promise.all(
    objects.map(async (p, i) => {
      const o = planned[i];
      try {
        const found = await api.getObject(o.apiVersion, p.plural, p.namespaced ? o.metadata.namespace : undefined, o.metadata.name);
        if (found)
          live.push({
            kind: o.kind,
            metadata: { labels: found.metadata?.labels ?? {}, name: o.metadata.name, ...(p.namespaced ? { namespace: o.metadata.namespace } : {}) },
          });
      } catch (e) {
        unreadable.push(`could not check whether ${o.kind} ${o.metadata.name} already exists: ${(e as Error).message}`);
      }
    }),
  );
  const bag = new DiagnosticBag();
  checkAdoption(planned, live, instanceId, bag);
  bag.throwIfErrors("objects of this VNF already exist on the cluster and are not this instance's; nothing was created");
  return unreadable;
}
