import { useCallback, useEffect, useState } from "preact/hooks";
import { parsePeerGroup, serializePeerGroup, type PeerGroup } from "./peer-group.js";

export type UpdatePeerGroup = (patch: Partial<PeerGroup>) => void;

/**
 * The peer group from the address bar. Every committed change pushes a history entry, so
 * back and forward step through the groups the broker tried; popstate reads it back.
 */
export function usePeerGroup(): [PeerGroup, UpdatePeerGroup] {
  const [group, setGroup] = useState(() => parsePeerGroup(location.search));

  useEffect(() => {
    const onPop = () => setGroup(parsePeerGroup(location.search));
    addEventListener("popstate", onPop);
    return () => removeEventListener("popstate", onPop);
  }, []);

  const update = useCallback<UpdatePeerGroup>((patch) => {
    // The address bar is the source of truth, so two quick updates never lose each other.
    const next = { ...parsePeerGroup(location.search), ...patch };
    const search = serializePeerGroup(next);
    if (search !== location.search) history.pushState(null, "", `${location.pathname}${search}${location.hash}`);
    setGroup(next);
  }, []);

  return [group, update];
}
