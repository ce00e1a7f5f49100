/** The VNF node (`tosca.nodes.nfv.VNF` or derived) → `VnfInfo`. */
import type { VnfInfo } from "../model";
import type { NodeTemplate } from "../phase4-templates/topology";
import { str, strings } from "./read";

/**
 * Reads the VNF identity; `primary` is the entry file's VNF node (values as the user wrote them),
 * `fallback` a flavour's VNF node (values from the type defaults).
 */
export function readVnfInfo(primary: NodeTemplate, fallback?: NodeTemplate): VnfInfo {
  const get = (key: string): unknown => {
    const v = primary.properties[key];
    return v !== undefined && str(v) !== undefined ? v : fallback?.properties[key];
  };
  const info: VnfInfo = {
    descriptorId: str(get("descriptor_id")) ?? "",
    descriptorVersion: str(get("descriptor_version")) ?? "",
    provider: str(get("provider")) ?? "",
    productName: str(get("product_name")) ?? "",
    softwareVersion: str(get("software_version")) ?? "",
    vnfmInfo: strings(primary.properties.vnfm_info ?? fallback?.properties.vnfm_info),
    nodeType: primary.typeName,
  };
  const productInfoName = str(get("product_info_name"));
  if (productInfoName !== undefined) info.productInfoName = productInfoName;
  const productInfoDescription = str(get("product_info_description"));
  if (productInfoDescription !== undefined) info.productInfoDescription = productInfoDescription;
  return info;
}
