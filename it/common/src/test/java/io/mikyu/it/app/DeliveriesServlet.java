package io.mikyu.it.app;

import jakarta.ejb.EJB;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/** {@code GET /deliveries}: what this application's message-driven beans were given, one delivery a line. */
@WebServlet("/deliveries")
public class DeliveriesServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    @EJB
    private Deliveries deliveries;

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType("text/plain");
        StringBuilder out = new StringBuilder();
        for (Deliveries.Delivery d : deliveries.all()) {
            out.append(d.line()).append('\n');
        }
        response.getWriter().print(out);
    }
}
