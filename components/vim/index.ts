export { KubernetesVim, type KubernetesVimArgs } from "./kubernetes-vim";
export { OpenStackVim, type OpenStackVimArgs } from "./openstack-vim";
export { type TackerVimRecord } from "./vim-record";
export { type ServerPlacement, type ServerPlacementSource } from "./server-placement";
export { vimFromSpec, type VimFromSpecOptions } from "./from-spec";
