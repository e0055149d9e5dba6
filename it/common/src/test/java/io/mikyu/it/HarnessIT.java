package io.mikyu.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.ejb.EJB;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.ShrinkWrap;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The server starts, takes a WAR, serves its servlet on loopback and runs a test inside itself. */
@ExtendWith(ArquillianExtension.class)
class HarnessIT {

    @Deployment
    static WebArchive hello() {
        return ShrinkWrap.create(WebArchive.class, "hello.war").addClasses(HelloServlet.class, Greeter.class);
    }

    @ArquillianResource
    private URL base;

    @EJB
    private Greeter greeter;

    @Test
    @RunAsClient
    void servletAnswersOverHttpOnLoopback() throws Exception {
        assertThat(base.getHost()).isIn("127.0.0.1", "localhost");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(base + "hello?name=mikyu")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("hello mikyu");
    }

    /** Runs in the server (JUnit is put in the deployment for it, AssertJ is not: plain JUnit assertions). */
    @Test
    void testRunsInsideTheServer() {
        assertNotNull(greeter, "injected by the server");
        assertEquals("hello inside", greeter.greet("inside"));
    }
}
