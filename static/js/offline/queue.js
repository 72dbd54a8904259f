// The offline queue (issue 17): entries typed without network, kept in IndexedDB (idb) until
// the server has them. Survives a reload and a closed tab. No rule lives here: every check
// is the engine's (protocol/entries in Pyodide, static/js/offline/engine.js).
//
// Vocabulary:
//   entry    {id, match, kind, body, fields, submission, version, recorded_at, conflict?}
//            ``version``: the match's version the entry was typed on; ``submission``: the
//            form's one-time id (the server stores an entry once, whatever is sent twice);
//            ``conflict``: the engine's messages when it no longer fits (kept, never dropped).
//   document the match's stored protocol/1 document with its version, as last seen.
//   sync     sending the queue in order through the JSON endpoint (protocol/views/sync.py),
//            one tab at a time (a Web Lock).

import { openDB } from "../../vendor/idb/index.js";

const DB_NAME = "trumpfbuch-offline";

let opening = null;

function db() {
  if (!opening) {
    opening = openDB(DB_NAME, 1, {
      upgrade(database) {
        const entries = database.createObjectStore("entries", { keyPath: "id", autoIncrement: true });
        entries.createIndex("match", "match");
        database.createObjectStore("documents", { keyPath: "match" });
        database.createObjectStore("meta", { keyPath: "key" });
      },
    });
  }
  return opening;
}

/** The queued entries of ``match`` in the order typed. */
export async function queued(match) {
  const entries = await (await db()).getAllFromIndex("entries", "match", match);
  return entries.sort((a, b) => a.id - b.id);
}

export async function add(entry) {
  return (await db()).add("entries", entry);
}

export async function put(entry) {
  return (await db()).put("entries", entry);
}

export async function remove(id) {
  return (await db()).delete("entries", id);
}

export async function get(id) {
  return (await db()).get("entries", id);
}

/** The newest stored document of ``match`` this phone has seen: {match, version, document}. */
export async function storedDocument(match) {
  return (await db()).get("documents", match);
}

/** Keep ``document`` at ``version`` unless a newer one is kept already. */
export async function keepDocument(match, version, document) {
  const database = await db();
  const tx = database.transaction("documents", "readwrite");
  const kept = await tx.store.get(match);
  if (!kept || kept.version <= version) {
    await tx.store.put({ match, version, document });
  }
  await tx.done;
}

export async function lastSync(match) {
  const row = await (await db()).get("meta", `sync:${match}`);
  return row ? row.at : null;
}

export async function noteSync(match, at) {
  return (await db()).put("meta", { key: `sync:${match}`, at });
}

/** Run ``work`` while no other tab of this browser syncs (Web Locks; one lock per match). */
export function exclusively(match, work) {
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request(`trumpfbuch-sync-${match}`, work);
  }
  return work();
}
