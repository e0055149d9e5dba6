package io.mikyu.engine;

/** Receives records in place; see {@link RecordView}. */
@FunctionalInterface
public interface RecordHandler {

    void onRecord(RecordView record);
}
