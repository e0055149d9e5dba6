package io.mikyu.broker.xa;

import com.arjuna.ats.arjuna.objectstore.StoreManager;
import com.arjuna.ats.arjuna.recovery.RecoveryManager;
import com.arjuna.ats.arjuna.state.InputObjectState;
import com.arjuna.ats.internal.arjuna.common.UidHelper;
import com.arjuna.ats.arjuna.common.Uid;
import com.arjuna.ats.internal.jta.transaction.arjunacore.AtomicAction;
import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import jakarta.transaction.Transaction;
import jakarta.transaction.TransactionManager;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The application of the crash tests, run in a child JVM ({@link ChildJvm}) with {@code mode key=value...}:
 * <ul>
 *   <li>{@code transact}: Narayana, H2 and mikyu; one JTA transaction consumes {@code in-<cycle>} from
 *   {@value #IN}, sends {@code out-<cycle>} to {@value #OUT} and inserts the row {@code row-<cycle>}, with a
 *   {@link CrashingXAResource} that halts the JVM in the phase {@code -Dmikyu.xa.haltIn} names, enlisted at
 *   {@code position} {@code edge} (commit: before mikyu and H2, so neither has committed; prepare: after both, so
 *   both are prepared) or {@code between} (after mikyu, before H2: commit — mikyu has committed, H2 has not;
 *   prepare — mikyu is prepared, H2 is not);</li>
 *   <li>{@code recover}: the same application restarted: says what mikyu and H2 hold in doubt, runs Narayana's
 *   recovery ({@link RecoveryManager#scan()}) until neither does (at most {@value #MAX_SCANS} scans), says what is
 *   left, and exits 0;</li>
 *   <li>{@code prepare}: drives one branch on mikyu by hand ({@link PreparedBranch}) up to a successful prepare,
 *   says {@code prepared <xid>} and waits to be killed;</li>
 *   <li>{@code consume}: starts a branch with {@code XAResource.setTransactionTimeout(timeout)}, receives
 *   {@code count} messages of {@code queue} in it, says when, and waits to be killed.</li>
 * </ul>
 */
public final class XaApplication {

    static final String IN = "xa.in";
    static final String OUT = "xa.out";
    static final int MAX_SCANS = 5;

    private XaApplication() {
    }

    public static void main(String[] args) throws Exception {
        ChildJvm.boundLifetime();
        Map<String, String> options = new HashMap<>();
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            options.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        try {
            switch (args[0]) {
                case "transact" -> transact(options);
                case "recover" -> recover(options);
                case "prepare" -> prepare(options);
                case "consume" -> consume(options);
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        } catch (Throwable t) {
            ChildJvm.say("failed " + t.toString().replace('\n', ' '));
            t.printStackTrace();
            System.exit(2);
        }
        System.exit(0);
    }

    /** The arguments of a child in {@code mode}, for {@link ChildJvm#start}. */
    static String[] args(String mode, Map<String, String> options) {
        List<String> args = new ArrayList<>(List.of(mode));
        options.forEach((k, v) -> args.add(k + "=" + v));
        return args.toArray(String[]::new);
    }

    private static void transact(Map<String, String> o) throws Exception {
        String url = o.get("url");
        int cycle = Integer.parseInt(o.get("cycle"));
        String haltIn = System.getProperty(CrashingXAResource.HALT_IN);
        Narayana.configure(Path.of(o.get("objectStore")));
        H2Db db = new H2Db(Path.of(o.get("h2"))).createTable();
        TransactionManager tm = Narayana.transactionManager();
        try (Connection plain = Jms.plain(url).createConnection(); Application app = new Application(url, db)) {
            Jms.send(plain, IN, "in-" + cycle);
            tm.begin();
            Transaction tx = tm.getTransaction();
            boolean between = "between".equals(o.get("position"));
            if ("commit".equals(haltIn) && !between) {
                tx.enlistResource(new CrashingXAResource("commit"));    // first: halts before any other commits
            }
            if (!tx.enlistResource(app.mikyuResource())) {
                throw new IllegalStateException("mikyu's XAResource was not enlisted");
            }
            if (between) {
                tx.enlistResource(new CrashingXAResource(haltIn));      // after mikyu, before H2
            }
            if (!tx.enlistResource(app.h2Resource())) {
                throw new IllegalStateException("H2's XAResource was not enlisted");
            }
            String received = app.receive(IN, 10_000);
            if (!("in-" + cycle).equals(received)) {
                throw new AssertionError("received " + received + " from " + IN + ", not in-" + cycle);
            }
            app.send(OUT, "out-" + cycle);
            app.insert("row-" + cycle);
            if ("prepare".equals(haltIn) && !between) {
                tx.enlistResource(new CrashingXAResource("prepare"));   // last: halts after the others prepared
            }
            ChildJvm.say("committing");
            tm.commit();
            ChildJvm.say("committed");
        }
    }

    private static void recover(Map<String, String> o) throws Exception {
        String url = o.get("url");
        Narayana.configure(Path.of(o.get("objectStore")));
        H2Db db = new H2Db(Path.of(o.get("h2")));
        XAConnection jms = Jms.xaFactory(url).createXAConnection();
        javax.sql.XAConnection jdbc = db.dataSource().getXAConnection();
        XAResource mikyu = jms.createXASession().getXAResource();
        XAResource h2 = jdbc.getXAResource();
        ChildJvm.say("in-doubt-mikyu " + list(inDoubt(mikyu)));
        ChildJvm.say("in-doubt-h2 " + list(inDoubt(h2)));
        ChildJvm.say("log-before " + logged());
        List<Supplier<XAResource>> helpers = List.of(() -> mikyu, () -> h2);
        RecoveryManager manager = Narayana.recoveryManager(helpers);
        int scans = 0;
        while (scans < MAX_SCANS) {
            manager.scan();
            scans++;
            if (inDoubt(mikyu).isEmpty() && inDoubt(h2).isEmpty() && logged() == 0) {
                break;
            }
        }
        ChildJvm.say("scans " + scans);
        ChildJvm.say("left-mikyu " + list(inDoubt(mikyu)));
        ChildJvm.say("left-h2 " + list(inDoubt(h2)));
        ChildJvm.say("log-after " + logged());
        jdbc.close();
        jms.close();
    }

    private static List<String> inDoubt(XAResource resource) throws Exception {
        return Xids.texts(resource.recover(XAResource.TMSTARTRSCAN | XAResource.TMENDRSCAN));
    }

    /** How many transactions Narayana's log holds (decided and not yet finished). */
    private static int logged() throws Exception {
        InputObjectState uids = new InputObjectState();
        if (!StoreManager.getRecoveryStore().allObjUids(new AtomicAction().type(), uids)) {
            throw new IllegalStateException("Narayana's object store could not be read");
        }
        int n = 0;
        while (true) {
            Uid uid = UidHelper.unpackFrom(uids);
            if (uid.equals(Uid.nullUid())) {
                return n;
            }
            n++;
        }
    }

    /** {@code <n> <item>...}: what {@link #parseList(String)} reads. */
    static String list(List<String> items) {
        return items.size() + (items.isEmpty() ? "" : " " + String.join(" ", items));
    }

    static List<String> parseList(String said) {
        String[] parts = said.trim().split(" ");
        int n = Integer.parseInt(parts[0]);
        if (parts.length != n + 1) {
            throw new AssertionError("not a list of " + n + ": " + said);
        }
        return List.of(parts).subList(1, parts.length);
    }

    private static void prepare(Map<String, String> o) throws Exception {
        String url = o.get("url");
        int cycle = Integer.parseInt(o.get("cycle"));
        Xid xid = Xids.create("prepared-" + cycle);
        try (Connection plain = Jms.plain(url).createConnection()) {
            XAConnection xc = Jms.xaFactory(url).createXAConnection();
            int vote = PreparedBranch.run(plain, xc, xid, cycle);
            ChildJvm.say("prepared " + Xids.text(xid) + " " + vote);
            ChildJvm.blockUntilKilled();
        }
    }

    private static void consume(Map<String, String> o) throws Exception {
        String url = o.get("url");
        String queue = o.get("queue");
        int count = Integer.parseInt(o.get("count"));
        int timeout = Integer.parseInt(o.get("timeout"));
        XAConnection xc = Jms.xaFactory(url).createXAConnection();
        xc.start();
        XASession session = xc.createXASession();
        XAResource resource = session.getXAResource();
        if (!resource.setTransactionTimeout(timeout)) {
            throw new AssertionError("setTransactionTimeout(" + timeout + ") refused");
        }
        Xid xid = Xids.create("abandoned");
        ChildJvm.say("starting " + System.currentTimeMillis());
        resource.start(xid, XAResource.TMNOFLAGS);
        MessageConsumer consumer = session.getSession().createConsumer(session.getSession().createQueue(queue));
        for (int i = 0; i < count; i++) {
            if (consumer.receive(10_000) == null) {
                throw new AssertionError("message " + i + " of " + count + " not received from " + queue);
            }
        }
        ChildJvm.say("consumed " + count + " " + System.currentTimeMillis());
        ChildJvm.blockUntilKilled();
    }
}
