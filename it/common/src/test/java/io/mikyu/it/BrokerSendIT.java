package io.mikyu.it;

import io.mikyu.it.app.TcpReceiverMdb;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The scenario against {@code tcp://}: a {@code mikyu daemon} this test starts on loopback before the application
 * is deployed (the extensions' order), and stops after it is undeployed.
 */
@ExtendWith({Daemon.class, ArquillianExtension.class})
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class BrokerSendIT extends SendScenario {

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return app("e2e-tcp.war", TcpReceiverMdb.class);
    }

    @Override
    String target() {
        return "tcp";
    }
}
