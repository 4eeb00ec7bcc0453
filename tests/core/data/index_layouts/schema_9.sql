-- The index layout of schema 9 as simdesk at commit 2fabe99 created it (its sqlite_master, in order).
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
   "encoding" TEXT NOT NULL,
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
CREATE INDEX documents_b0 ON documents(((fingerprint >> 0) & 65535));
CREATE INDEX documents_b1 ON documents(((fingerprint >> 16) & 65535));
CREATE INDEX documents_b2 ON documents(((fingerprint >> 32) & 65535));
CREATE INDEX documents_b3 ON documents(((fingerprint >> 48) & 65535));
CREATE TABLE scores (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        score REAL NOT NULL,
        PRIMARY KEY (a, b), CHECK (a < b)
    ) WITHOUT ROWID;
CREATE TRIGGER documents_content_changed
        AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean = 0, paired = 0 WHERE id = new.id;
    END;
INSERT INTO simdesk_meta VALUES ('schema_version', '9');
