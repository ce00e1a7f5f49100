/** The VIMs the stack config tests put in `pulumi-nfv:vims` (documentation addresses: nothing is called). */
export const OS_VIM = { auth_url: "http://192.0.2.20/identity", username: "u", password: "pw", project_name: "nfv" };
/** A Kubernetes VIM that renders manifests to a directory: no API server, so no adoption check either. */
export const RENDER_K8S_VIM = {
  type: "kubernetes",
  auth_url: "https://192.0.2.30:6443",
  bearer_token: "tok",
  ssl_ca_cert: "None",
  render_yaml_to_directory: "/tmp/nfv-render-test",
};
