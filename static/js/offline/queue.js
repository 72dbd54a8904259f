// The offline queue: entries typed without network, kept in IndexedDB (idb) until
// the server has them. Survives a reload and a closed tab. No rule lives here: every check
// is the engine's (protocol/entry_form in Pyodide, static/js/offline/engine.js).
//
// Vocabulary:
//   entry    {id, match, kind, body, fields, submission, version, position, recorded_at, conflict?, clash?}
//            ``version``: the match's version the entry was typed on; ``position``: the place
//            in the Partie's entries it was typed for (a correction: the entry it corrects);
//            ``submission``: the form's one-time id (the server stores an entry once, whatever
//            is sent twice); ``conflict``: why it does not fit (the server's or the engine's
//            words; kept, never dropped); ``clash``: the entry another device stored at its
//            place (protocol/handover.py), for "Als Spiel 8 eintragen" / "Trotzdem korrigieren".
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

const OWN_KEPT = 400;  // two Partien of 200 entries

/** The one-time ids of the entries this phone handed over for ``match`` (the newest few
 * hundred): "what other devices recorded meanwhile" leaves them out. */
export async function ownSubmissions(match) {
  const row = await (await db()).get("meta", `own:${match}`);
  return row ? row.submissions : [];
}

export async function noteOwnSubmission(match, submission) {
  const database = await db();
  const tx = database.transaction("meta", "readwrite");
  const row = (await tx.store.get(`own:${match}`)) || { key: `own:${match}`, submissions: [] };
  row.submissions = [...row.submissions.filter((known) => known !== submission), submission].slice(-OWN_KEPT);
  await tx.store.put(row);
  await tx.done;
}

/** Run ``work`` while no other tab of this browser syncs (Web Locks; one lock per match). */
export function exclusively(match, work) {
  if (navigator.locks && navigator.locks.request) {
    return navigator.locks.request(`trumpfbuch-sync-${match}`, work);
  }
  return work();
}
