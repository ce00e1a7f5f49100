export {
  PrivateRegistry,
  INSTALL_SCRIPT,
  REMOTE_IMAGE_TARBALL,
  STORAGE_ID,
  type PrivateRegistryArgs,
  type RegistryVnfArgs,
  type RegistryHostArgs,
  type RegistryConnectionInfo,
} from "./private-registry";
export { HOST_VNFC, readRegistryInstallation, registryStdin, PARAM_KEY, type RegistryInstallation, type RegistryProxy } from "./params";
