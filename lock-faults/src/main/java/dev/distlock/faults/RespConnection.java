/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.faults;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One open RESP connection, opened by {@link Resp#connect(int)}; commands on it are
 * serialized.
 */
public final class RespConnection implements AutoCloseable {

	private final Socket socket;

	private final OutputStream out;

	private final InputStream in;

	RespConnection(Socket socket) throws IOException {
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

}
