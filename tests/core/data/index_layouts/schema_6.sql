-- The index layout of schema 6 as simdesk at commit f6dd4d4 created it (its sqlite_master, in order).
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE documents (
        id INTEGER PRIMARY KEY,
        path TEXT NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        content_hash TEXT NOT NULL,
        encoding TEXT NOT NULL,
        chars INTEGER NOT NULL,
        fingerprint INTEGER NOT NULL,
        b0 INTEGER NOT NULL, b1 INTEGER NOT NULL, b2 INTEGER NOT NULL, b3 INTEGER NOT NULL,
        lines BLOB NOT NULL DEFAULT x'',
        votes BLOB NOT NULL DEFAULT x'',
        clean_fp INTEGER,
        clean_key TEXT,
        paired_fp INTEGER
    );
CREATE INDEX documents_b0 ON documents(b0)
    ;
CREATE INDEX documents_b1 ON documents(b1)
    ;
CREATE INDEX documents_b2 ON documents(b2)
    ;
CREATE INDEX documents_b3 ON documents(b3)
    ;
CREATE TABLE problems (path TEXT PRIMARY KEY, error TEXT NOT NULL);
CREATE TABLE keep_marks (
        doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE
    );
CREATE TABLE trash_queue (
        doc_id INTEGER PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE
    );
CREATE TABLE scores (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        score REAL NOT NULL,
        PRIMARY KEY (a, b), CHECK (a < b)
    ) WITHOUT ROWID
    ;
CREATE TRIGGER documents_content_changed
        AFTER UPDATE OF content_hash, fingerprint ON documents
        WHEN old.content_hash != new.content_hash OR old.fingerprint != new.fingerprint
    BEGIN
        DELETE FROM scores WHERE a = new.id OR b = new.id;
        UPDATE documents SET clean_fp = NULL, clean_key = NULL, paired_fp = NULL WHERE id = new.id;
    END;
CREATE TABLE reviewed (
        keep_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        member_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        content_hash TEXT NOT NULL,
        PRIMARY KEY (keep_id, member_id)
    ) WITHOUT ROWID
    ;
CREATE TABLE ignored_pairs (
        a INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        b INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        PRIMARY KEY (a, b), CHECK (a < b)
    );
INSERT INTO meta VALUES ('schema_version', '6');
