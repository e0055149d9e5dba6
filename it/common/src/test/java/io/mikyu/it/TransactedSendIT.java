package io.mikyu.it;

import io.mikyu.it.app.ReceiverMdb;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.extension.ExtendWith;

/** The scenario against {@code vm://}: an engine inside the server, on a directory under the module's target/. */
@ExtendWith(ArquillianExtension.class)
@EnabledIf("io.mikyu.it.Rar#present")
@RunAsClient
class TransactedSendIT extends SendScenario {

    @Deployment(name = "app", order = 2, testable = false)
    static WebArchive app() {
        return app("e2e.war", ReceiverMdb.class);
    }

    @Override
    String target() {
        return "vm";
    }
}
