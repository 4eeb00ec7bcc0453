-- The index layout of schema 10 as simdesk at commit 620c2ff created it (its sqlite_master, in order).
PRAGMA application_id = 1935962987;
CREATE TABLE "simdesk_meta" (
   "key" TEXT PRIMARY KEY,
   "value" TEXT
);
CREATE TABLE "documents" (
   "id" INTEGER PRIMARY KEY,
   "path" TEXT NOT NULL,
   "size" INTEGER NOT NULL,
   "mtime_ns" INTEGER NOT NULL,
   "content_hash" BLOB NOT NULL,
   "encoding" TEXT,
   "chars" INTEGER NOT NULL,
   "fingerprint" INTEGER NOT NULL,
   "clean_fp" INTEGER,
   "clean" INTEGER NOT NULL DEFAULT 0,
   "paired" INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE "line_hashes" (
   "doc_id" INTEGER PRIMARY KEY REFERENCES "documents"("id") ON DELETE CASCADE,
   "hashes" BLOB NOT NULL
);
CREATE TABLE "minhash_bands" (
   "doc_id" INTEGER PRIMARY KEY REFERENCES "documents"("id") ON DELETE CASCADE,
   "keys" BLOB NOT NULL
);
CREATE TABLE "clean_boilerplate" (
   "hash" INTEGER PRIMARY KEY
);
CREATE TABLE "segments" (
   "key" INTEGER PRIMARY KEY,
   "docs" TEXT NOT NULL
);
CREATE TABLE "problems" (
   "path" TEXT PRIMARY KEY,
   "error" TEXT NOT NULL
);
CREATE TABLE "keep_marks" (
   "doc_id" INTEGER PRIMARY KEY REFERENCES "documents"("id") ON DELETE CASCADE
);
CREATE TABLE "trash_queue" (
   "doc_id" INTEGER PRIMARY KEY REFERENCES "documents"("id") ON DELETE CASCADE
);
CREATE TABLE "ignored_pairs" (
   "a" INTEGER REFERENCES "documents"("id") ON DELETE CASCADE,
   "b" INTEGER REFERENCES "documents"("id") ON DELETE CASCADE,
   PRIMARY KEY ("a", "b")
);
CREATE TABLE "reviewed" (
   "keep_id" INTEGER REFERENCES "documents"("id") ON DELETE CASCADE,
   "member_id" INTEGER REFERENCES "documents"("id") ON DELETE CASCADE,
   "content_hash" TEXT NOT NULL,
   PRIMARY KEY ("keep_id", "member_id")
);
CREATE UNIQUE INDEX "documents_path"
    ON "documents" ("path");
CREATE TRIGGER segments_add AFTER INSERT ON documents
    BEGIN
        SELECT RAISE(ABORT, 'the index holds more documents than it can, 17,651,984')
            WHERE new.id >= 17651984;
        INSERT INTO segments(key, docs) VALUES ((0 | ((new.fingerprint >> 3) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 0) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 0) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 0) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 0) & 7)) % 127)), ((8192 | ((new.fingerprint >> 19) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 16) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 16) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 16) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 16) & 7)) % 127)), ((16384 | ((new.fingerprint >> 35) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 32) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 32) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 32) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 32) & 7)) % 127)), ((24576 | ((new.fingerprint >> 51) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 48) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 48) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 48) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 48) & 7)) % 127)) ON CONFLICT(key) DO UPDATE SET docs = docs || excluded.docs;
    END;
CREATE TRIGGER segments_remove AFTER DELETE ON documents
    BEGIN
        UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 0) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 0) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 0) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 0) & 7)) % 127), '') WHERE key = (0 | ((old.fingerprint >> 3) & 8191)); UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 16) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 16) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 16) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 16) & 7)) % 127), '') WHERE key = (8192 | ((old.fingerprint >> 19) & 8191)); UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 32) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 32) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 32) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 32) & 7)) % 127), '') WHERE key = (16384 | ((old.fingerprint >> 35) & 8191)); UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 48) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 48) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 48) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 48) & 7)) % 127), '') WHERE key = (24576 | ((old.fingerprint >> 51) & 8191)); DELETE FROM segments WHERE key IN ((0 | ((old.fingerprint >> 3) & 8191)), (8192 | ((old.fingerprint >> 19) & 8191)), (16384 | ((old.fingerprint >> 35) & 8191)), (24576 | ((old.fingerprint >> 51) & 8191))) AND docs = '';
    END;
CREATE TRIGGER segments_move AFTER UPDATE OF fingerprint ON documents
        WHEN old.fingerprint != new.fingerprint
    BEGIN
        UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 0) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 0) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 0) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 0) & 7)) % 127), '') WHERE key = (0 | ((old.fingerprint >> 3) & 8191)); UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 16) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 16) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 16) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 16) & 7)) % 127), '') WHERE key = (8192 | ((old.fingerprint >> 19) & 8191)); UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 32) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 32) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 32) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 32) & 7)) % 127), '') WHERE key = (16384 | ((old.fingerprint >> 35) & 8191)); UPDATE segments SET docs = replace(docs, char(CASE WHEN ((old.id << 3) | ((old.fingerprint >> 48) & 7)) / 127 < 55168 THEN 128 + ((old.id << 3) | ((old.fingerprint >> 48) & 7)) / 127 ELSE 2176 + ((old.id << 3) | ((old.fingerprint >> 48) & 7)) / 127 END, 1 + ((old.id << 3) | ((old.fingerprint >> 48) & 7)) % 127), '') WHERE key = (24576 | ((old.fingerprint >> 51) & 8191)); DELETE FROM segments WHERE key IN ((0 | ((old.fingerprint >> 3) & 8191)), (8192 | ((old.fingerprint >> 19) & 8191)), (16384 | ((old.fingerprint >> 35) & 8191)), (24576 | ((old.fingerprint >> 51) & 8191))) AND docs = '';
        INSERT INTO segments(key, docs) VALUES ((0 | ((new.fingerprint >> 3) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 0) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 0) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 0) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 0) & 7)) % 127)), ((8192 | ((new.fingerprint >> 19) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 16) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 16) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 16) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 16) & 7)) % 127)), ((16384 | ((new.fingerprint >> 35) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 32) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 32) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 32) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 32) & 7)) % 127)), ((24576 | ((new.fingerprint >> 51) & 8191)), char(CASE WHEN ((new.id << 3) | ((new.fingerprint >> 48) & 7)) / 127 < 55168 THEN 128 + ((new.id << 3) | ((new.fingerprint >> 48) & 7)) / 127 ELSE 2176 + ((new.id << 3) | ((new.fingerprint >> 48) & 7)) / 127 END, 1 + ((new.id << 3) | ((new.fingerprint >> 48) & 7)) % 127)) ON CONFLICT(key) DO UPDATE SET docs = docs || excluded.docs;
    END;
CREATE TABLE scores (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        score REAL NOT NULL,
        a_in_b REAL,
        b_in_a REAL,
        PRIMARY KEY (a, b), CHECK (a < b)
    ) WITHOUT ROWID;
CREATE TRIGGER documents_content_changed
        AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean = 0, paired = 0 WHERE id = new.id;
    END;
INSERT INTO simdesk_meta VALUES ('schema_version', '10');
