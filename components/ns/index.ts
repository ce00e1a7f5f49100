export { NetworkService, type ConstituentArgs, type NetworkServiceArgs } from "./network-service";
