import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { parsePeerGroup, serializePeerGroup, type PeerGroup } from "./peer-group.js";
import { SETTLE_MS } from "./settle.js";

export type UpdatePeerGroup = (patch: Partial<PeerGroup>) => void;

/**
 * The peer group from the address bar. Every settled change pushes a history entry, so
 * back and forward step through the groups the broker tried; popstate reads it back.
 */
export function usePeerGroup(): [PeerGroup, UpdatePeerGroup] {
  const [group, setGroup] = useState(() => parsePeerGroup(location.search));
  // The inputs and time of the last entry pushed: a quick change of the same inputs amends it.
  const last = useRef<{ keys: string; at: number } | null>(null);

  useEffect(() => {
    const onPop = () => {
      last.current = null;
      setGroup(parsePeerGroup(location.search));
    };
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  const update = useCallback<UpdatePeerGroup>((patch) => {
    // The address bar is the source of truth, so two quick updates never lose each other.
    const next = { ...parsePeerGroup(location.search), ...patch };
    const search = serializePeerGroup(next);
    if (search !== location.search) {
      const keys = Object.keys(patch).sort().join(",");
      const now = performance.now();
      const settling = last.current !== null && last.current.keys === keys && now - last.current.at < SETTLE_MS;
      const url = `${location.pathname}${search}${location.hash}`;
      if (settling) history.replaceState(null, "", url);
      else history.pushState(null, "", url);
      last.current = { keys, at: now };
    }
    setGroup(next);
  }, []);

  return [group, update];
}
