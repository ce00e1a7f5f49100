export { NetworkService, type NetworkServiceArgs } from "./network-service";
