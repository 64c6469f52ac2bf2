import { ISLANDS, LAYERS } from "./rooms.js";

export interface LayoutRules {
  layers: readonly (readonly string[])[];
  islands: Readonly<Record<string, readonly string[]>>;
}

/**
 * What breaks the layout in an import graph of src/ (paths relative to src/): every
 * import from a room beside or above the importer's, every import out of an island
 * beyond what it may share, every file of no room, and every import circle.
 */
export function layoutProblems(
  graph: ReadonlyMap<string, readonly string[]>,
  rules: LayoutRules = { layers: LAYERS, islands: ISLANDS },
): string[] {
  const layerOf = new Map<string, number>();
  rules.layers.forEach((rooms, layer) => rooms.forEach((room) => layerOf.set(room, layer)));
  const problems: string[] = [];
  for (const [file, targets] of graph) {
    const island = islandOf(file, rules.islands);
    if (island !== undefined) {
      for (const target of targets) {
        const shared = rules.islands[island]!.some((allowed) => target === allowed || target.startsWith(`${allowed}/`));
        if (islandOf(target, rules.islands) !== island && !shared)
          problems.push(`${file} imports ${target}: ${island} may import only ${rules.islands[island]!.join(", ")}`);
      }
      continue;
    }
    const room = roomOf(file);
    const layer = layerOf.get(room);
    if (layer === undefined) {
      problems.push(`${file} is in no room: add "${room}" to a layer of test/layout/rooms.ts`);
      continue;
    }
    for (const target of targets) {
      const targetRoom = roomOf(target);
      if (targetRoom === room) continue;
      const targetLayer = layerOf.get(targetRoom);
      if (islandOf(target, rules.islands) !== undefined)
        problems.push(`${file} imports ${target}: nothing outside it imports from ${islandOf(target, rules.islands)}`);
      else if (targetLayer === undefined || targetLayer >= layer)
        problems.push(
          `${file} imports ${target}: ${room} may not import from ${targetRoom} (${targetLayer === layer ? "beside it" : "above it"})`,
        );
    }
  }
  for (const circle of importCircles(graph)) problems.push(`import circle: ${[...circle, circle[0]].join(" -> ")}`);
  return problems;
}

/** The room of a file: its first folder under src/, or the file itself at the top. */
export function roomOf(file: string): string {
  return file.split("/")[0]!;
}

function islandOf(file: string, islands: Readonly<Record<string, readonly string[]>>): string | undefined {
  return Object.keys(islands).find((island) => file.startsWith(`${island}/`));
}

/** The strongly connected sets of two or more files (Tarjan), each as one circle's files. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      members.push(member);
    } while (member !== file);
    if (members.length > 1 || graph.get(file)?.includes(file)) circles.push(members.reverse());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
