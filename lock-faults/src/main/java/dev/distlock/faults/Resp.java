package dev.distlock.faults;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * A minimal RESP client for the test side: one short-lived socket per command, so that it never
 * shares the reconnect state of the client under test.
 */
public final class Resp {

	private static final int TIMEOUT_MILLIS = 2000;

	private Resp() {
	}

	/**
	 * Sends one command to {@code 127.0.0.1:port} and reads its reply.
	 * @param port the Redis port
	 * @param args the command and its arguments
	 * @return a {@code String}, {@code Long}, {@code List} or {@code null}
	 * @throws UncheckedIOException if Redis cannot be reached
	 * @throws IllegalStateException if Redis replies with an error
	 */
	public static @Nullable Object call(int port, String... args) {
		try (Connection connection = connect(port)) {
			return connection.call(args);
		}
	}

	/**
	 * Opens a connection for many commands, such as a worker thread's writes to its resource.
	 * @param port the Redis port
	 * @return the connection, to close
	 */
	public static Connection connect(int port) {
		try {
			Socket socket = new Socket();
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), TIMEOUT_MILLIS);
			socket.setSoTimeout(TIMEOUT_MILLIS);
			socket.setTcpNoDelay(true);
			return new Connection(socket);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Redis on port " + port + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Whether Redis answers {@code PING} on the port.
	 * @param port the port
	 * @return {@code true} on {@code PONG}
	 */
	public static boolean answers(int port) {
		try {
			return "PONG".equals(call(port, "PING"));
		}
		catch (RuntimeException ex) {
			return false;
		}
	}

	/**
	 * Sends a command whose reply is an integer.
	 * @param port the port
	 * @param args the command
	 * @return the integer, {@code null} for a nil reply
	 */
	public static @Nullable Long number(int port, String... args) {
		Object reply = call(port, args);
		return (reply instanceof String text) ? Long.valueOf(text) : (Long) reply;
	}

	private static @Nullable Object read(InputStream in) throws IOException {
		int type = in.read();
		String line = readLine(in);
		switch (type) {
			case '+':
				return line;
			case '-':
				throw new IllegalStateException(line);
			case ':':
				return Long.parseLong(line);
			case '$': {
				int length = Integer.parseInt(line);
				if (length < 0) {
					return null;
				}
				byte[] data = in.readNBytes(length + 2);
				return new String(data, 0, length, StandardCharsets.UTF_8);
			}
			case '*': {
				int count = Integer.parseInt(line);
				if (count < 0) {
					return null;
				}
				List<@Nullable Object> items = new ArrayList<>();
				for (int i = 0; i < count; i++) {
					items.add(read(in));
				}
				return items;
			}
			default:
				throw new IOException("Unexpected reply type " + type);
		}
	}

	private static String readLine(InputStream in) throws IOException {
		ByteArrayOutputStream line = new ByteArrayOutputStream();
		int b;
		while ((b = in.read()) != '\n') {
			if (b == -1) {
				throw new IOException("Connection closed");
			}
			if (b != '\r') {
				line.write(b);
			}
		}
		return line.toString(StandardCharsets.UTF_8);
	}

	/**
	 * One open connection; commands on it are serialized.
	 */
	public static final class Connection implements AutoCloseable {

		private final Socket socket;

		private final OutputStream out;

		private final InputStream in;

		Connection(Socket socket) throws IOException {
			this.socket = socket;
			this.out = socket.getOutputStream();
			this.in = new BufferedInputStream(socket.getInputStream());
		}

		/**
		 * Sends one command and reads its reply.
		 * @param args the command and its arguments
		 * @return a {@code String}, {@code Long}, {@code List} or {@code null}
		 */
		public synchronized @Nullable Object call(String... args) {
			try {
				ByteArrayOutputStream request = new ByteArrayOutputStream();
				request.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
				for (String arg : args) {
					byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
					request.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
					request.writeBytes(bytes);
					request.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
				}
				this.out.write(request.toByteArray());
				this.out.flush();
				return read(this.in);
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}

		/**
		 * Sends a command whose reply is an integer or a number as text.
		 * @param args the command
		 * @return the number, {@code null} for a nil reply
		 */
		public @Nullable Long number(String... args) {
			Object reply = call(args);
			return (reply instanceof String text) ? Long.valueOf(text) : (Long) reply;
		}

		@Override
		public void close() {
			try {
				this.socket.close();
			}
			catch (IOException ex) {
				// Best effort.
			}
		}

	}

}
