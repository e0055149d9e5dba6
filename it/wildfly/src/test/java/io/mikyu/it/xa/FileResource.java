package io.mikyu.it.xa;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

/**
 * A second XA resource whose state is files in a directory, so that it keeps a prepared branch across a crash of
 * the server as a real resource manager does: {@code prepared/XID} from prepare until the branch is decided, then
 * {@code committed/XID} or {@code rolled-back/XID}. {@code recover} lists {@code prepared/}.
 *
 * <p>While the file {@code armed} exists, a commit takes it away, writes {@code committing/XID} and then waits
 * until the process is killed: the transaction manager has logged its decision to commit and has prepared every
 * branch, and commits the branches in the order they were enlisted, so a resource enlisted after this one is
 * left prepared and undecided. That is the moment the crash test kills the server.
 */
public final class FileResource implements XAResource {

    /** The directory, -Dmikyu.it.crash.resource of the server. */
    static Path directory() {
        String dir = System.getProperty("mikyu.it.crash.resource");
        if (dir == null) {
            throw new IllegalStateException("-Dmikyu.it.crash.resource is not set");
        }
        return Path.of(dir);
    }

    private final Path dir;

    public FileResource(Path dir) {
        this.dir = dir;
    }

    @Override
    public void start(Xid xid, int flags) {
        // the branch has no work of its own before prepare
    }

    @Override
    public void end(Xid xid, int flags) {
    }

    @Override
    public int prepare(Xid xid) throws XAException {
        write("prepared", xid);
        return XA_OK;
    }

    @Override
    public void commit(Xid xid, boolean onePhase) throws XAException {
        try {
            if (Files.deleteIfExists(dir.resolve("armed"))) {
                write("committing", xid);
                waitForTheEnd();
            }
            decide(xid, "committed");
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public void rollback(Xid xid) throws XAException {
        decide(xid, "rolled-back");
    }

    @Override
    public Xid[] recover(int flags) throws XAException {
        if ((flags & TMSTARTRSCAN) == 0) {
            return new Xid[0]; // everything was listed at the start of the scan
        }
        Path prepared = dir.resolve("prepared");
        if (!Files.isDirectory(prepared)) {
            return new Xid[0];
        }
        try (Stream<Path> files = Files.list(prepared)) {
            List<Xid> xids = files.map(f -> (Xid) FileXid.parse(f.getFileName().toString())).toList();
            return xids.toArray(new Xid[0]);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public void forget(Xid xid) {
    }

    @Override
    public boolean isSameRM(XAResource other) {
        return other instanceof FileResource f && f.dir.equals(dir);
    }

    @Override
    public int getTransactionTimeout() {
        return 0;
    }

    @Override
    public boolean setTransactionTimeout(int seconds) {
        return false;
    }

    private void decide(Xid xid, String outcome) throws XAException {
        Path prepared = dir.resolve("prepared").resolve(FileXid.name(xid));
        try {
            if (!Files.exists(prepared)) {
                XAException e = new XAException("not prepared: " + FileXid.name(xid));
                e.errorCode = XAException.XAER_NOTA;
                throw e;
            }
            write(outcome, xid);
            Files.delete(prepared);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    private void write(String state, Xid xid) throws XAException {
        try {
            Path file = dir.resolve(state).resolve(FileXid.name(xid));
            Files.createDirectories(file.getParent());
            Files.writeString(file, state);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /** Until the process is killed: the commit must not return, nor the next branch be committed. */
    @SuppressWarnings("InfiniteLoopStatement")
    private static void waitForTheEnd() {
        CountDownLatch never = new CountDownLatch(1);
        while (true) {
            try {
                never.await();
            } catch (InterruptedException e) {
                // the thread stays here whatever wakes it
            }
        }
    }

    private static XAException failure(IOException cause) {
        XAException e = new XAException(cause.toString());
        e.errorCode = XAException.XAER_RMERR;
        e.initCause(cause);
        return e;
    }

    /** A branch's Xid as a file name, {@code formatId-gtridHex-bqualHex}, and back. */
    record FileXid(int formatId, byte[] gtrid, byte[] bqual) implements Xid {

        static String name(Xid xid) {
            return xid.getFormatId() + "-" + HexFormat.of().formatHex(xid.getGlobalTransactionId()) + "-"
                    + HexFormat.of().formatHex(xid.getBranchQualifier());
        }

        static FileXid parse(String name) {
            String[] parts = name.split("-", -1);
            return new FileXid(Integer.parseInt(parts[0]), HexFormat.of().parseHex(parts[1]),
                    HexFormat.of().parseHex(parts[2]));
        }

        @Override
        public int getFormatId() {
            return formatId;
        }

        @Override
        public byte[] getGlobalTransactionId() {
            return gtrid.clone();
        }

        @Override
        public byte[] getBranchQualifier() {
            return bqual.clone();
        }
    }
}
