package io.mikyu.engine;

import java.nio.file.Path;

/** Stored bytes fail their checksum or structure check. The message names the file and byte position. */
public class CorruptionException extends MikyuException {
    private static final long serialVersionUID = 1L;

    private final String file;
    private final long position;

    public CorruptionException(Path file, long position, String what) {
        super(what + " in " + file + " at byte " + position);
        this.file = file.toString();
        this.position = position;
    }

    public String file() {
        return file;
    }

    public long position() {
        return position;
    }
}
