/**
 * The VIM record that Tacker's `openstack vim show -f json` prints, so tools and people used to
 * Tacker find the same fields. Credentials are masked as Tacker masks them (`***`); the CA and
 * `extra.helm_info` are masked too, since pulumi-nfv treats them as credentials. Time stamps are null: a record that
 * changed on every run would show a diff in every preview.
 */
import { stableUuid } from "../stable-id";

export interface TackerVimRecord {
  id: string;
  name: string;
  type: "openstack" | "kubernetes";
  description: string;
  auth_url: string;
  auth_cred: Record<string, string>;
  vim_project: Record<string, string>;
  placement_attr: { regions: string[] };
  project_id: string | null;
  is_default: boolean;
  /** Tacker's REACHABLE/UNREACHABLE come from a probe; a record made at registration is PENDING. */
  status: "PENDING";
  extra: Record<string, unknown>;
  created_at: null;
  updated_at: null;
}

export const MASK = "***";

/** The VIM's id: stable per stack and name, so it survives every `pulumi up`. */
export function vimId(stack: string, name: string): string {
  return stableUuid("vim", stack, name);
}

export interface KubernetesRecordParts {
  id: string;
  name: string;
  authUrl: string;
  namespace: string;
  username?: string;
  hasToken: boolean;
  hasPassword: boolean;
  hasCa: boolean;
  /** Tacker's OIDC keys (the token URL and client id are shown, the client secret masked). */
  oidc?: { tokenUrl: string; clientId: string; hasClientSecret: boolean };
  extra?: Record<string, unknown>;
}

export function kubernetesVimRecord(p: KubernetesRecordParts): TackerVimRecord {
  const authCred: Record<string, string> = {
    auth_url: p.authUrl,
    // Tacker stores the string 'None' when only a token is given.
    username: p.username ?? "None",
    ssl_ca_cert: p.hasCa ? MASK : "None",
  };
  if (p.hasPassword) authCred.password = MASK;
  if (p.hasToken) authCred.bearer_token = MASK;
  if (p.oidc) {
    authCred.oidc_token_url = p.oidc.tokenUrl;
    authCred.client_id = p.oidc.clientId;
    if (p.oidc.hasClientSecret) authCred.client_secret = MASK;
  }
  return {
    ...common(p.id, p.name, "kubernetes", p.authUrl),
    auth_cred: authCred,
    vim_project: { name: p.namespace },
    placement_attr: { regions: [p.namespace] },
    extra: maskExtra(p.extra),
  };
}

/** Tacker's `extra.helm_info` carries the masters' SSH password (`masternode_password`): masked whole. */
function maskExtra(extra: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!extra) return {};
  return "helm_info" in extra ? { ...extra, helm_info: MASK } : extra;
}

export interface OpenStackRecordParts {
  id: string;
  name: string;
  authUrl: string;
  username: string;
  projectName: string;
  projectDomainName: string;
  userDomainName: string;
  certVerify: boolean;
  region?: string;
}

export function openStackVimRecord(p: OpenStackRecordParts): TackerVimRecord {
  return {
    ...common(p.id, p.name, "openstack", p.authUrl),
    auth_cred: {
      auth_url: p.authUrl,
      username: p.username,
      password: MASK,
      user_domain_name: p.userDomainName,
      project_name: p.projectName,
      project_domain_name: p.projectDomainName,
      cert_verify: p.certVerify ? "True" : "False",
    },
    vim_project: { name: p.projectName, project_domain_name: p.projectDomainName },
    placement_attr: { regions: p.region ? [p.region] : [] },
    extra: {},
  };
}

function common(id: string, name: string, type: "openstack" | "kubernetes", authUrl: string) {
  return {
    id,
    name,
    type,
    description: "",
    auth_url: authUrl,
    project_id: null,
    is_default: false,
    status: "PENDING" as const,
    created_at: null,
    updated_at: null,
  };
}
