/** What every SOL001 concept module needs: the type system and the problem collector. */
import type { TypeSystem } from "../phase3-types/type-system";
import type { Problems } from "../problems";

export interface SemanticContext {
  types: TypeSystem;
  problems: Problems;
}
