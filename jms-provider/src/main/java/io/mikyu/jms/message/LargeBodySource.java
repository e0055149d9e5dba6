package io.mikyu.jms.message;

import java.io.IOException;
import java.io.InputStream;

/** A received message's body stored as a large body: opened when it is read, never before. */
public interface LargeBodySource {

    /** The body's length in bytes, known without reading it. */
    long length();

    /** Reads the body from its start. */
    InputStream open() throws IOException;
}
