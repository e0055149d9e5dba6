package io.mikyu.engine.internal.log;

import io.mikyu.engine.CorruptionException;
import io.mikyu.engine.EngineConfig;
import io.mikyu.engine.LogQueueConfig;
import io.mikyu.engine.RecoveryReport;
import io.mikyu.engine.internal.format.FileHeader;
import io.mikyu.engine.internal.files.FileChannels;
import io.mikyu.engine.internal.files.Quarantine;
import io.mikyu.engine.internal.format.SegmentDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.stream.Stream;

/**
 * Opens a log queue's segments and brings them to a consistent state.
 *
 * <ul>
 *   <li>A sealed segment whose complete index matches its size is trusted without reading it: reopening costs
 *       one small index read per segment, not a pass over the data.</li>
 *   <li>The last segment is trusted the same way after a clean close; otherwise it is scanned (at most one
 *       segment's worth of reading), its index rebuilt, and a torn tail cut off.</li>
 *   <li>Damage before the end of a file is never skipped silently: under {@code QUARANTINE} the file is copied
 *       to {@code quarantine/}, cut before the damage, and reported; under {@code FAIL} opening stops with an
 *       error naming the file and position.</li>
 * </ul>
 */
public final class LogRecovery {

    /** Receives what recovery did, one event per action. */
    public interface Listener {
        void on(RecoveryReport.Event event);
    }

    private LogRecovery() {
    }

    static ConcurrentSkipListMap<Long, LogSegment> recover(Path dir, LogQueueConfig config, EngineConfig engine,
                                                          OpenSegmentFiles files, Listener listener)
            throws IOException {
        List<Long> bases = new ArrayList<>();
        try (Stream<Path> listing = Files.list(dir)) {
            for (Path p : (Iterable<Path>) listing::iterator) {
                String n = p.getFileName().toString();
                if (n.endsWith(".tmp") || n.endsWith(".compacting")) {
                    Files.deleteIfExists(p); // an interrupted index write or compaction; the original stands
                } else if (n.endsWith(SegmentDescriptor.SUFFIX) && SegmentDescriptor.parseBaseOffset(n) >= 0) {
                    bases.add(SegmentDescriptor.parseBaseOffset(n));
                }
            }
        }
        bases.sort(Long::compare);
        ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
        try {
            for (int i = 0; i < bases.size(); i++) {
                boolean last = i == bases.size() - 1;
                LogSegment seg = openSegment(dir, bases.get(i), last, config, engine, files, listener);
                if (seg != null) {
                    segments.put(seg.baseOffset, seg);
                }
            }
        } catch (IOException | RuntimeException e) {
            for (LogSegment seg : segments.values()) {
                try {
                    seg.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
        if (segments.isEmpty()) {
            long base = bases.isEmpty() ? 0 : bases.get(bases.size() - 1);
            segments.put(base, LogSegment.create(dir, base, files));
        } else if (segments.lastEntry().getValue().isSealed()) {
            // the last segment was lost to quarantine: continue in a fresh one after the survivors
            long next = segments.lastEntry().getValue().nextOffset();
            segments.put(next, LogSegment.create(dir, next, files));
        }
        return segments;
    }

    private static LogSegment openSegment(Path dir, long base, boolean last, LogQueueConfig config,
                                          EngineConfig engine, OpenSegmentFiles files, Listener listener)
            throws IOException {
        Path file = dir.resolve(SegmentDescriptor.fileName(base));
        Path indexFile = dir.resolve(SegmentDescriptor.indexFileName(base));
        FileChannel ch = FileChannels.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
        boolean keep = false;
        try {
            long fileSize = ch.size();
            if (!headerOk(ch, file, base, fileSize)) {
                if (last && allZeroOrShort(ch, fileSize)) {
                    // created but never written before a crash: start it over
                    ch.close();
                    Files.delete(file);
                    Files.deleteIfExists(indexFile);
                    listener.on(new RecoveryReport.Event(RecoveryReport.Kind.TORN_TAIL_TRUNCATED, file.toString(), 0,
                            "segment header never completed; segment recreated"));
                    return LogSegment.create(dir, base, files);
                }
                damaged(file, 0, "bad segment header", engine, listener);
                Quarantine.copy(file, dir);
                ch.close();
                Files.deleteIfExists(file);
                Files.deleteIfExists(indexFile);
                return null;
            }
            if (last && fileSize == SegmentDescriptor.HEADER_LENGTH && !Files.exists(indexFile)) {
                // written empty when its log was created, never appended to: nothing to scan or report
                LogSegment seg = LogSegment.recovered(file, base, ch, files, new SegmentIndex(base), fileSize, base,
                        fileSize, false);
                seg.markDirty(); // its header is fsynced with the first flush, as a segment made by create()
                keep = true;
                return seg;
            }
            String[] problem = new String[1];
            SegmentIndex.Loaded loaded = SegmentIndex.load(indexFile, base, problem);
            if (loaded != null && loaded.segmentBytes() == fileSize) {
                LogSegment seg = LogSegment.recovered(file, base, ch, files, loaded.index(), fileSize,
                        loaded.nextOffset(), fileSize, !last);
                if (last) {
                    seg.keepIndexFileUntilWritten(); // deleted before the first write, which makes it stale
                }
                keep = true;
                return seg;
            }
            if (loaded != null) {
                problem[0] = "index covers " + loaded.segmentBytes() + " bytes, segment has " + fileSize;
            }
            SegmentScanner.Result scan = SegmentScanner.scan(ch, base, engine.indexIntervalBytes(),
                    engine.maxBatchBytes(), !config.compacted());
            if (last) {
                listener.on(new RecoveryReport.Event(RecoveryReport.Kind.UNCLEAN_SHUTDOWN_SCAN, file.toString(),
                        scan.validBytes(), "scanned " + scan.validBytes() + " bytes (index " + problem[0] + ")"));
            } else {
                listener.on(new RecoveryReport.Event(RecoveryReport.Kind.INDEX_REBUILT, indexFile.toString(), 0,
                        "index " + problem[0] + "; rebuilt from " + file.getFileName()));
            }
            if (scan.end() == SegmentScanner.End.TORN_TAIL && last) {
                ch.truncate(scan.validBytes());
                ch.force(true);
                listener.on(new RecoveryReport.Event(RecoveryReport.Kind.TORN_TAIL_TRUNCATED, file.toString(),
                        scan.problemPosition(), scan.problem() + "; cut " + (fileSize - scan.validBytes())
                        + " bytes"));
            } else if (scan.end() != SegmentScanner.End.CLEAN) {
                // A sealed segment was fsynced whole, so any damage in it is corruption, never a torn write.
                damaged(file, scan.problemPosition(), scan.problem(), engine, listener);
                Quarantine.copy(file, dir);
                ch.truncate(scan.validBytes());
                ch.force(true);
            } else if (!last && scan.validBytes() < fileSize) {
                ch.truncate(scan.validBytes());
            }
            long allocated = ch.size();
            LogSegment seg = LogSegment.recovered(file, base, ch, files, scan.index(), scan.validBytes(),
                    scan.nextOffset(), scan.validBytes(), false);
            if (!last) {
                seg.seal();
            } else {
                seg.allocated = allocated;
                Files.deleteIfExists(indexFile);
            }
            keep = true;
            return seg;
        } finally {
            if (!keep && ch.isOpen()) {
                ch.close();
            }
        }
    }

    private static boolean headerOk(FileChannel ch, Path file, long base, long fileSize) throws IOException {
        if (fileSize < SegmentDescriptor.HEADER_LENGTH) {
            return false;
        }
        ByteBuffer header = ByteBuffer.allocate(SegmentDescriptor.HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(header, 0);
        header.flip();
        if (FileHeader.SEGMENT.isOtherVersion(header)) {
            FileHeader.SEGMENT.check(header, file); // throws, naming the version: refuse under any policy
        }
        try {
            FileHeader.SEGMENT.check(header, file);
        } catch (CorruptionException e) {
            return false;
        }
        return header.getLong(SegmentDescriptor.BASE_OFFSET_OFFSET) == base;
    }

    private static boolean allZeroOrShort(FileChannel ch, long fileSize) throws IOException {
        if (fileSize > 1 << 20) {
            return false;
        }
        ByteBuffer buf = ByteBuffer.allocate((int) fileSize).order(ByteOrder.LITTLE_ENDIAN);
        ch.read(buf, 0);
        buf.flip();
        return fileSize < SegmentDescriptor.HEADER_LENGTH || SegmentScanner.allZero(buf, 0, buf.limit());
    }

    private static void damaged(Path file, long position, String what, EngineConfig engine, Listener listener) {
        if (engine.corruptionPolicy() == EngineConfig.CorruptionPolicy.FAIL) {
            throw new CorruptionException(file, position, what + " (corruptionPolicy=FAIL)");
        }
        listener.on(new RecoveryReport.Event(RecoveryReport.Kind.CORRUPTION_QUARANTINED, file.toString(), position,
                what + "; original kept in quarantine/, data before byte " + position + " kept"));
    }
}
